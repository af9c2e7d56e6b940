import Testing

/// Every suite that runs a real server nests here, one test at a time: their clients block threads, and on a
/// 2-core machine Swift's cooperative pool (which runs the server's store actors) has only two.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServerTests {}
