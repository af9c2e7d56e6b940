-- wrk script: POST /stores/<prefix><i>/actions {"type":"increment"} with i uniform in [0, count) (keep-alive).
-- Arguments after "--": count prefix. Prints one machine-readable line:
-- RESULT <requests/s> <p50 µs> <p99 µs> <socket errors> <non-2xx responses>
local count, prefix
local headers = {["Content-Type"] = "application/json"}
local body = '{"type":"increment"}'

init = function(args)
  count = tonumber(args[1]) or 1
  prefix = args[2] or "many-"
  math.randomseed(os.time())
end

request = function()
  return wrk.format("POST", "/stores/" .. prefix .. math.random(0, count - 1) .. "/actions", headers, body)
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.0f %.0f %.0f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))
end
