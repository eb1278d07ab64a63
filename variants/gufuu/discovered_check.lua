-- discovered_check.lua: a King step (a move or a capture) after which a
-- shared piece covers both Kings gives check with that piece: the only
-- way to give double check.  Option discovered_check:
--   allow  (default) such steps are legal checks: nothing to refuse;
--   forbid no King step may give check.  The engine asks this effect only
--          about King steps that leave the side to move in check, and
--          refuses each (`veto = true`).
effect{
  name = "discovered-check",
  veto_faces = {"king"},
  veto_kinds = rules.discovered_check == "forbid" and {"move", "capture"} or {},
  veto_check = true,
  veto = true,                -- the fields above are the whole rule
}
