-- A misspelt hook name.
effect{
  name = "typo",
  aftr = function(pos, move) return false end,
}
