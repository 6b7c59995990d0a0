-- wrk script: every request is a distinct, valid drag swipe that the server commits.
--
--   wrk -t2 -c32 -d10s -s scripts/bench_swipes.lua http://127.0.0.1:PORT -- DECK RUN CARD_ID...
--
-- Each request names its own participant and card (a participant swipes each card once),
-- carries a unique Idempotency-Key, and a realistic 30-60 sample drag trace with jitter
-- (eased motion, uneven sample intervals, vertical wander, so it is neither refused nor
-- `suspect`). Traces come from a per-thread pool made at start-up so that wrk spends its
-- CPU on sending, not on formatting numbers. `done` prints the status counts, which
-- bench.sh compares with the rows in the database.

local threads = {}
local counter = 1

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local deck, run, cards = "getaways", "r", {}
local pool = {}
local n = 0
statuses = {}  -- global: done() reads it from each thread

local function trace(dir, seed)
  local rnd = math.random
  local count = 30 + rnd(0, 30)
  local sign = dir == "right" and 1 or -1
  local reach = (0.5 + rnd() * 0.4) * 320
  local drift = (rnd() - 0.5) * 60
  local t, x, y = {}, {}, {}
  local now = rnd() * 4
  for i = 1, count do
    local p = i / count
    local ease = p * p * (3 - 2 * p)
    t[i] = string.format("%.2f", now)
    x[i] = string.format("%.2f", sign * reach * ease + (rnd() - 0.5) * 1.2)
    y[i] = string.format("%.2f", drift * ease + (rnd() - 0.5) * 1.2)
    now = now + 12 + rnd() * 8
  end
  return string.format(
    '{"t":[%s],"x":[%s],"y":[%s],"w":320,"h":440,"vw":390,"vh":844,"gx":%.1f,"gy":%.1f}',
    table.concat(t, ","), table.concat(x, ","), table.concat(y, ","), 40 + rnd() * 240, 60 + rnd() * 320)
end

-- Signed participant ids by body (`RUN-tTHREAD-K`), from the file SWIPEDECK_BENCH_PIDS names
-- (scripts/bench_participants.py writes it): the server refuses ids it did not sign.
local signed = {}

local function loadSigned()
  local path = os.getenv("SWIPEDECK_BENCH_PIDS")
  if not path then error("set SWIPEDECK_BENCH_PIDS to the file bench_participants.py wrote") end
  for line in io.lines(path) do
    signed[line:match("^(.*)%-%x+$")] = line
  end
end

function init(args)
  loadSigned()
  deck = args[1] or deck
  run = args[2] or run
  for i = 3, #args do cards[#cards + 1] = args[i] end
  if #cards == 0 then error("pass the deck's card ids after --") end
  math.randomseed(os.time() * 1000 + (tid or 0))
  for i = 1, 128 do
    local dir = (i % 2 == 0) and "right" or "left"
    pool[i] = { dir = dir, trace = trace(dir, i) }
  end
end

function request()
  local i = n
  n = n + 1
  local card = cards[(i % #cards) + 1]
  local body = string.format("%s-t%d-%d", run, tid, math.floor(i / #cards))
  local participant = signed[body] or error("no signed id for " .. body .. " (raise --per-thread)")
  local shape = pool[(i % #pool) + 1]
  local body = string.format(
    '{"card":%s,"direction":"%s","input":"drag","participant":"%s","decisionMs":%d,"trace":%s}',
    card, shape.dir, participant, 300 + (i * 7919) % 4700, shape.trace)
  return wrk.format("POST", "/api/v1/decks/" .. deck .. "/swipes", {
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("%s-t%d-%d", run, tid, i),
  }, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local totals = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for code, count in pairs(s) do totals[code] = (totals[code] or 0) + count end
  end
  local created, other = 0, 0
  for code, count in pairs(totals) do
    if code == 201 then created = created + count else other = other + count end
  end
  for code, count in pairs(totals) do io.write(string.format("STATUS %d %d\n", code, count)) end
  io.write(string.format("CREATED %d\nNON201 %d\n", created, other))
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
