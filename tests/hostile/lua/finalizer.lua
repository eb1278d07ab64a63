-- Hostile: finalizers (__gc) that loop, allocate or use a kept handle,
-- run by the collector at an arbitrary later moment: inside another hook
-- or when the variant is freed.
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
    end
    if v >= 1 and v <= 3 then collectgarbage() end
    return false
  end,
}
