-- The header from LuaJIT's FFI (no compiler): cc -E -P -DRX_CDEF rxc.h through ffi.cdef,
-- by-value calls into the library, and every callback kind through rx_by_ref (LuaJIT's
-- callbacks cannot take or return a struct by value). Usage: luajit check_luajit.lua CDEF LIB
-- Prints one line per failure and "N passed, N failed".
local ffi = require("ffi")
local cdef_path, lib_path = arg[1], arg[2]
local f = assert(io.open(cdef_path))
ffi.cdef(f:read("*a"))
f:close()
local lib = ffi.load(lib_path)

local passed, failed = 0, 0
local function check(name, ok, detail)
  if ok then passed = passed + 1 else
    failed = failed + 1
    print("check_luajit: " .. name .. ": " .. (detail or "failed"))
  end
end

local live0 = lib.rx_debug_live_objects()

-- By-value calls.
local v = lib.rx_int(42)
check("rx_int", v.kind == lib.RX_INT and v.i == 42)
check("rx_value_double", lib.rx_value_double(lib.rx_double(2.5)) == 2.5)
local s = lib.rx_string("lua")
check("rx_value_string", ffi.string(lib.rx_value_string(s)) == "lua")
lib.rx_value_release(s)

-- Callbacks by reference: one rx_by_ref holds every function; its ctx is unused here.
local got = {}
local completed, disposed = 0, 0
local by = ffi.new("rx_by_ref")
local cbs = {
  on_next = ffi.cast("void (*)(void *, const rx_value *)", function(ctx, p) got[#got + 1] = tonumber(p.i) end),
  map = ffi.cast("void (*)(void *, const rx_value *, rx_value *, rx_error **)",
    function(ctx, p, out, err) out[0] = lib.rx_int(p.i * 10) end),
  predicate = ffi.cast("bool (*)(void *, const rx_value *, rx_error **)",
    function(ctx, p, err) return p.i % 2 == 1 end),
  compact_map = ffi.cast("bool (*)(void *, const rx_value *, rx_value *, rx_error **)",
    function(ctx, p, out, err)
      if p.i % 2 == 1 then return false end
      out[0] = lib.rx_int(p.i * 100)
      return true
    end),
  accumulate = ffi.cast("void (*)(void *, const rx_value *, const rx_value *, rx_value *, rx_error **)",
    function(ctx, acc, p, out, err) out[0] = lib.rx_int(acc.i + p.i) end),
}
for k, cb in pairs(cbs) do by[k] = cb end
local on_completed = ffi.cast("void (*)(void *)", function(ctx) completed = completed + 1 end)
local on_disposed = ffi.cast("void (*)(void *)", function(ctx) disposed = disposed + 1 end)

local function collect(o)
  got, completed, disposed = {}, 0, 0
  local obs = ffi.new("rx_observer")
  obs.on_next = lib.rx_by_ref_on_next
  obs.on_completed = on_completed
  obs.on_disposed = on_disposed
  obs.ctx = by
  lib.rx_dispose(lib.rx_subscribe(o, obs))
  lib.rx_release(o)
  return table.concat(got, " ")
end

local src = lib.rx_range(1, 4)
local r = collect(lib.rx_map(src, lib.rx_by_ref_map, by, nil))
check("rx_map via rx_by_ref_map", r == "10 20 30 40" and completed == 1 and disposed == 1, r)
r = collect(lib.rx_filter(src, lib.rx_by_ref_predicate, by, nil))
check("rx_filter via rx_by_ref_predicate", r == "1 3", r)
r = collect(lib.rx_compact_map(src, lib.rx_by_ref_compact_map, by, nil))
check("rx_compact_map via rx_by_ref_compact_map", r == "200 400", r)
r = collect(lib.rx_scan(src, lib.rx_int(0), lib.rx_by_ref_accumulate, by, nil))
check("rx_scan via rx_by_ref_accumulate", r == "1 3 6 10", r)
lib.rx_release(src)

-- A subject delivering to a LuaJIT observer.
local subj = lib.rx_publish_subject_new()
local obs = ffi.new("rx_observer")
obs.on_next = lib.rx_by_ref_on_next
obs.ctx = by
got = {}
local token = lib.rx_subscribe(lib.rx_subject_as_observable(subj), obs)
for k = 1, 3 do lib.rx_subject_on_next(subj, lib.rx_int(k)) end
lib.rx_dispose(token)
lib.rx_release(subj)
check("subject -> by-ref observer", table.concat(got, " ") == "1 2 3", table.concat(got, " "))

-- The trait subscribe functions: on_success takes rx_value by value, so it goes through
-- rx_by_ref_on_next as an observer's on_next does.
local one = lib.rx_just(lib.rx_int(7))
got, completed, disposed = {}, 0, 0
lib.rx_dispose(lib.rx_subscribe_single(one, lib.rx_by_ref_on_next, nil, by, on_disposed))
check("rx_subscribe_single via rx_by_ref_on_next", table.concat(got, " ") == "7" and disposed == 1,
  table.concat(got, " "))
got, completed, disposed = {}, 0, 0
lib.rx_dispose(lib.rx_subscribe_maybe(one, lib.rx_by_ref_on_next, nil, on_completed, by, on_disposed))
check("rx_subscribe_maybe via rx_by_ref_on_next", table.concat(got, " ") == "7" and completed == 0 and disposed == 1,
  table.concat(got, " "))
lib.rx_release(one)

for _, cb in pairs(cbs) do cb:free() end
on_completed:free()
on_disposed:free()
check("live objects back to the start", lib.rx_debug_live_objects() == live0,
  tostring(lib.rx_debug_live_objects() - live0) .. " still live")
print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
