-- wrk script: POST /stores/counter/actions {"type":"increment"} (keep-alive); prints one machine-readable line:
-- RESULT <requests/s> <p50 µs> <p99 µs> <socket errors> <non-2xx responses>
wrk.method = "POST"
wrk.body = '{"type":"increment"}'
wrk.headers["Content-Type"] = "application/json"

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.0f %.0f %.0f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))
end
