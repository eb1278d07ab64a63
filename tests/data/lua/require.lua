-- Hostile: loads a native module.
effect{
  name = "requirer",
  after = function(pos, move)
    if pos:var(1) == 1 then require("socket") end
    return false
  end,
}
