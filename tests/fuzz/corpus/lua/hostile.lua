effect{
  name = "fz",
  after = function(pos, move)
    local t = {}
    for i = 1, 1e9 do t[i] = string.rep("x", 1000) end
  end,
}
