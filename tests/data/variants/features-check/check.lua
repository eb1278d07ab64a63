-- check.lua: a King is in check exactly when it stands on c3.
effect{
  name = "centre-check",
  check = function(pos, side)
    if rules.check_fails == "on" then error("check hook failed") end
    for _, k in ipairs(pos:find("king", side)) do
      if k.square == "c3" then return true end
    end
    return false
  end,
}
