-- Hostile: error values the engine must turn into a message: a table
-- whose __tostring loops, errors or returns a non-string, and a huge
-- string.
local function obj(f) return setmetatable({}, {__tostring = f}) end
effect{
  name = "errobj",
  after = function(pos, move)
    local v = pos:var(1)
    if v == 1 then error(obj(function() while true do end end)) end
    if v == 2 then error(obj(function() error("again") end)) end
    if v == 3 then error(obj(function() return 42 end)) end
    if v == 4 then error(string.rep("e", 1 << 20)) end
    if v == 5 then error() end
    return false
  end,
}
