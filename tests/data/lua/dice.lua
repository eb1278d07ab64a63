-- Rolls a die after every move into variable 2 (math.random follows the
-- position's seed).
effect{
  name = "dice",
  after = function(pos, move)
    pos:set_var(2, math.random(1000))
    return false
  end,
}
