-- Hostile: string bombs, one huge string.rep and one doubling loop.
effect{
  name = "strrep",
  after = function(pos, move)
    if pos:var(1) == 1 then
      local s = string.rep("x", 1 << 30)
      return #s > 0
    elseif pos:var(1) == 2 then
      local s = "x"
      while true do s = s .. s end
    elseif pos:var(1) == 3 then
      local s = ("abc"):rep(1 << 28, ",")
      return #s > 0
    end
    return false
  end,
}
