-- Hostile: an endless loop in a hook.
effect{
  name = "loop",
  after = function(pos, move)
    if pos:var(1) == 1 then
      while true do end
    end
    return false
  end,
}
