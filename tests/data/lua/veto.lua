-- No captures at all.
effect{
  name = "no-captures",
  veto = function(pos, move) return move.kind == "capture" end,
}
