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

-- The request and the RESULT line: post_action.lua's own, from beside this file.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post_action.lua")
