-- Hostile: a table that grows until memory runs out.
effect{
  name = "membomb",
  after = function(pos, move)
    if pos:var(1) == 1 then
      local t, i = {}, 0
      while true do
        i = i + 1
        t[i] = string.rep("x", 1000) .. i
      end
    end
    return false
  end,
}
