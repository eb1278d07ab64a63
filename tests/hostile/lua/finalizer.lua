-- Hostile: finalizers (__gc) that loop, allocate or use a kept handle.
-- The collector would run them at an arbitrary later moment (inside
-- another hook, or when the variant is freed) with the debug hooks off,
-- out of reach of the instruction budget; the sandbox's setmetatable
-- refuses a metatable with __gc (variables 1 to 3, and 6: a harmless
-- one).  A __gc added to the metatable afterwards, or to the strings'
-- metatable, is never called: Lua marks an object for finalization only
-- when setmetatable sees __gc (4 and 5).
local kept
effect{
  name = "finalizer",
  after = function(pos, move)
    local v = pos:var(1)
    kept = pos
    if v == 1 then
      setmetatable({}, {__gc = function() while true do end end})
    elseif v == 2 then
      setmetatable({}, {__gc = function() local t = {} while true do t[#t + 1] = {} end end})
    elseif v == 3 then
      setmetatable({}, {__gc = function() kept:flip("a2") end})
    elseif v == 4 then
      local mt = {}
      setmetatable({}, mt)
      mt.__gc = function() while true do end end
    elseif v == 5 then
      getmetatable("").__gc = function() while true do end end
      local s = ("x"):rep(100) .. v
    elseif v == 6 then
      setmetatable({}, {__gc = false})
    end
    if v >= 1 and v <= 6 then collectgarbage() end
    return false
  end,
}
