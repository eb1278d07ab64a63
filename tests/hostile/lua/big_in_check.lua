-- Hostile: pos:in_check in an endless loop, on the largest board
-- (tests/hostile/yaml/worst_case.yaml: 16x16, 8 tiers, 128 two-high
-- towers).  Each call is one instruction for the count hook but a pass
-- over the board in C, so the budget counts it as one instruction per
-- square (without that: 17 s per hook call).
effect{
  name = "big-in-check",
  veto = function(pos, move)
    while true do pos:in_check() end
  end,
}
