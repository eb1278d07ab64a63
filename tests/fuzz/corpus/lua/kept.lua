local kept
effect{
  name = "fz",
  veto = function(pos, move) kept = pos return false end,
  result = function(pos)
    if kept then return nil, tostring(kept) .. kept:side() end
  end,
}
