-- dice.lua: one move in ten is refused at random.
effect{
  name = "dice",
  veto_kinds = {"move"},
  veto = function(pos, move) return math.random(10) == 1 end,
}
