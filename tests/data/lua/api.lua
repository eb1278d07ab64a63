-- Exercises the read-only position functions through the result hook.
local function desc(p)
  if not p then return "nil" end
  return string.format("%s/%s/%d/%s/%s/%d", p.face, p.kind, p.owner,
                       tostring(p.flipped), p.facing, p.tier or 0)
end

local function err(f)
  local ok, msg = pcall(f)
  return ok and "ok" or msg
end

effect{
  name = "api",
  result = function(pos)
    local v = pos:var(1)
    local t = {}
    if v == 1 then
      t[#t + 1] = pos:side()
      t[#t + 1] = pos:files() .. "x" .. pos:ranks()
      t[#t + 1] = pos:height("c3")
      t[#t + 1] = desc(pos:piece("c3", 1))
      t[#t + 1] = desc(pos:piece("c3", 2))
      t[#t + 1] = desc(pos:piece("c3", 3))
      t[#t + 1] = desc(pos:top("e1"))
      t[#t + 1] = #pos:tower("c3") .. "," .. #pos:tower("a1")
      local hand = pos:hand(0)
      t[#t + 1] = (hand.pawn or 0) .. "," .. (hand.gold or 0) .. "," .. (hand.king or 0)
      t[#t + 1] = tostring(pos:in_check(0)) .. "," .. tostring(pos:in_check(1))
      t[#t + 1] = tostring(pos:attacked("c4", 1)) .. "," .. tostring(pos:attacked("e1", 1))
      t[#t + 1] = pos:var(1) .. "," .. pos:var(8)
      t[#t + 1] = tostring(pos:setup())
      t[#t + 1] = pos:ply() .. "," .. pos:clock()
      t[#t + 1] = tostring(pos:mode())
      t[#t + 1] = pos:square(0, 0) .. "," .. pos:square(4, 4)
      local f, r = pos:coords("d2")
      t[#t + 1] = f .. "," .. r
      return "draw", table.concat(t, " ")
    elseif v >= 2 then
      local checks = {
        function() local r = pos:height("f1") return r end,
        function() local r = pos:height("zz") return r end,
        function() local r = pos:piece("c3", 9) return r end,
        function() local r = pos:square(5, 0) return r end,
        function() local r = pos:hand(3) return r end,
        function() local r = pos:var(0) return r end,
        function() local r = pos:attacked("c3", 2) return r end,
        function() local r = pos:coords(11) return r end,
      }
      return "draw", err(checks[v - 1])
    end
  end,
}
