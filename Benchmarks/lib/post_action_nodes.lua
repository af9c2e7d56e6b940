-- wrk script: post_action.lua's request and RESULT line, spread over several servers (the nodes of a cluster):
-- WRK_PORTS="P1 P2 ..." (environment) gives the ports on 127.0.0.1; wrk thread i connects to port i mod n, so
-- `wrk -tN -cC` with N = the number of ports puts C/N keep-alive connections on each.
local ports = {}
for port in string.gmatch(os.getenv("WRK_PORTS") or "", "%d+") do ports[#ports + 1] = port end
local next_port = 0

function setup(thread)
  if #ports > 0 then
    thread.addr = wrk.lookup("127.0.0.1", ports[next_port % #ports + 1])[1]
    next_port = next_port + 1
  end
end

wrk.method = "POST"
wrk.body = '{"type":"increment"}'
wrk.headers["Content-Type"] = "application/json"

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.0f %.0f %.0f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))
end
