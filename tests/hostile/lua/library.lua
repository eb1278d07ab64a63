-- Hostile: standard-library calls that do much work in one call, where
-- the instruction count does not reach (docs/lua-api.md, Limits).
effect{
  name = "library",
  after = function(pos, move)
    local v = pos:var(1)
    if v == 1 then   -- backtracking pattern: 2^16 ways to fail, bounded here
      return string.find(string.rep("a", 16), string.rep("a?", 16) .. "b") ~= nil
    elseif v == 2 then
      local t = {}
      for i = 1, 100 do t[i] = i end
      table.sort(t, function(a, b) return true end)   -- invalid order
    elseif v == 3 then
      return select("#", table.unpack({}, 1, 1e8)) > 0
    elseif v == 4 then
      return load(string.rep("(", 1e5)) ~= nil        -- parser nesting
    elseif v == 5 then
      return #string.format("%099d", 1) > 0
    elseif v == 6 then
      return utf8.char(0x7fffffff, 0x7fffffff) ~= nil
    elseif v >= 16 then  -- the same pattern, 2^v ways to fail (v = 40: days)
      return string.find(string.rep("a", v), string.rep("a?", v) .. "b") ~= nil
    end
    return false
  end,
}
