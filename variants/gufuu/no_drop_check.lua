-- no_drop_check.lua: no drop may give check, the forced opening drops
-- included, and a drop never answers a check.  A drop moves no King and
-- takes nothing, so both come to one test: after a drop, no shared piece
-- may cover both Kings (the dropped one would give check; another one
-- would be the piece already checking the side that dropped).  The
-- engine asks this effect only about a drop that leaves the side to
-- move in check (veto_check), and always refuses it: `veto = true`.
effect{
  name = "no-drop-check",
  veto_kinds = {"drop"},
  veto_check = true,
  veto = true,                -- the fields above are the whole rule
}
