/// The help texts of the client commands (`statehouse COMMAND --help`).
enum ClientUsage {
    static let common = """
      --url URL       the server (default: $STATEHOUSE_URL, else http://127.0.0.1:8080); http:// only, https://
                      is not supported (put a TLS-terminating proxy in front and talk to it over http)
      --token TOKEN   a bearer token (default: $STATEHOUSE_TOKEN), sent as Authorization: Bearer TOKEN

    On a terminal the output is readable (a header such as "counter v12", then pretty-printed JSON; colour unless
    NO_COLOR is set). When standard output is not a terminal it is exactly one compact JSON document per line.
    Exit status: 0 done, 1 the server refused (its message is printed), 2 bad usage, 3 the server cannot be reached
    (or the stream ended).

    """

    static let stores = """
    Usage: statehouse stores [--url URL] [--token TOKEN]

    Lists the stores (GET /stores): name, reducer and version. Piped: one line per store,
    {"name":"counter","reducer":"Counter","version":3}.

    """ + common

    static let get = """
    Usage: statehouse get STORE [--path POINTER] [--url URL] [--token TOKEN]

    Prints the store's state (GET /stores/STORE): {"store":"counter","version":3,"state":{…}}.
      --path POINTER  only the sub-value at this JSON Pointer (RFC 6901, e.g. /items/0/text), resolved by the
                      command: {"store":…,"version":…,"path":"/items/0/text","state":…}; null when it does not resolve

    """ + common

    static let send = """
    Usage: statehouse send STORE ACTION [--id KEY] [--wait settled] [--url URL] [--token TOKEN]

    Sends one action (a Flux Standard Action, e.g. '{"type":"increment"}', or a JSON array of actions) with
    POST /stores/STORE/actions and prints the answer: {"store":"counter","version":4,"state":{…}}. An ACTION of -
    reads the action from standard input.
      --id KEY        an idempotency key (Idempotency-Key): sending the same action with the same key again
                      answers the first outcome without reducing again
      --wait settled  answer once the action and every effect it started have finished (at most 10 s)

    """ + common

    static let watch = """
    Usage: statehouse watch STORE [--path POINTER] [--format state|patch] [--since VERSION --epoch EPOCH]
                                  [--url URL] [--token TOKEN]

    Streams the store (WebSocket /stores/STORE/ws): its state now, then one entry per new version, until Ctrl-C,
    the store is deleted (exit 0) or the server ends the stream (exit 3). Piped: each server message as one line:
    {"type":"state","store":…,"epoch":…,"version":…,"state":…}, {"type":"patch",…,"base":…,"ops":[…]},
    {"type":"event",…}, {"type":"deleted",…}.
      --path POINTER     only this sub-value (RFC 6901), and only when it changes
      --format FORMAT    state (default: every version in full) or patch (RFC 6902 ops after the first state)
      --since VERSION --epoch EPOCH
                         resume from a version seen before: a patch from it (or a full state with
                         "resumed":false when the server no longer holds it)
    There is no automatic reconnect: when the stream ends, the last line on standard error says how to resume
    (--epoch E --since V), so nothing is missed.

    """ + common
}
