-- wrk script for GET benchmarks: counts statuses and prints one RESULT line (p50/p99 in µs).
--   wrk -t2 -c4 -d10s -s scripts/bench_get.lua http://127.0.0.1:PORT/d/getaways
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

statuses = {}

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local ok, other = 0, 0
  for _, thread in ipairs(threads) do
    for code, count in pairs(thread:get("statuses")) do
      if code == 200 then ok = ok + count else other = other + count end
    end
  end
  io.write(string.format("OK200 %d\nNON200 %d\n", ok, other))
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
