-- Hostile: standard-library calls that do much work in one call.  The
-- pattern functions (find, match, gmatch, gsub) count their steps against
-- the instruction budget (docs/lua-api.md, Limits); the others are
-- bounded by the memory limit or by Lua's own checks.
effect{
  name = "library",
  after = function(pos, move)
    local v = pos:var(1)
    if v == 1 then   -- backtracking pattern: 2^16 ways to fail, within the budget
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
    elseif v == 7 then   -- one quantifier, a step per pair of positions: 5 * 10^11
      return string.find(string.rep("a", 1e6), "a*b") ~= nil
    elseif v == 8 then   -- a plain find comparing 10^4 bytes at each of 10^6 places
      return string.find(string.rep("a", 1e6), string.rep("a", 1e4) .. "b", 1, true) ~= nil
    elseif v == 9 then   -- gsub, gmatch: the same search at every position
      return string.gsub(string.rep("a", 30), string.rep("a?", 30) .. "b", "") ~= nil
    elseif v == 10 then
      for w in string.gmatch(string.rep("a", 30), string.rep("a?", 30) .. "b") do end
    elseif v == 11 then  -- pcall catches the error; the hook fails all the same
      pcall(string.find, string.rep("a", 40), string.rep("a?", 40) .. "b")
      return false
    -- Each of these calls is one instruction to the count hook but
    -- milliseconds of work in C: what they allocate (string.rep) or walk
    -- (table.sort, collectgarbage) is charged to the budget.
    elseif v == 12 then
      for i = 1, 1e8 do local s = string.rep("x", 3e7) end
    elseif v == 13 then
      local t = {}
      for i = 1, 1e6 do t[i] = i end
      for i = 1, 1e8 do table.sort(t) end
    elseif v == 14 then
      local t = {}
      for i = 1, 5e5 do t[i] = {} end
      for i = 1, 1e8 do collectgarbage() end
    elseif v == 15 then  -- one instruction, two 4 MB strings compared: the time guard
      local a, b = string.rep("x", 4e6), string.rep("x", 4e6)
      local same = 0
      while true do
        if a == b then same = same + 1 end
      end
    elseif v >= 16 then  -- 2^v ways to fail (v = 40: days with Lua's own matcher)
      return string.find(string.rep("a", v), string.rep("a?", v) .. "b") ~= nil
    end
    return false
  end,
}
