-- Hostile: loads precompiled bytecode.
effect{
  name = "bytecode",
  after = function(pos, move)
    if pos:var(1) == 1 then
      assert(load("\27LuaT\0\25\147\r\n\26\n"))
    elseif pos:var(1) == 2 then
      return string.dump(function() end) ~= nil
    elseif pos:var(1) == 3 then
      setmetatable(_G, nil)
    end
    return false
  end,
}
