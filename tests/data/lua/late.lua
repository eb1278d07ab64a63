-- Hostile: registers an effect from inside a hook.
effect{
  name = "late",
  after = function(pos, move)
    if pos:var(1) == 1 then effect{name = "later"} end
    return false
  end,
}
