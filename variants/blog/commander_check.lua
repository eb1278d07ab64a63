-- A Commander in check may not stack onto a tower holding any own piece
-- (blog rules, decision 2).  Its strikes are not restricted.
effect{
  name = "commander-check",
  veto_faces = {"commander"},
  veto_kinds = {"stack"},
  -- the tower then holds another of the mover's pieces besides the
  -- Commander on top: the tests are the whole rule, no Lua call is needed
  veto_count = {on = "tower", owner = "mover", min = 2},
  veto_checked = true, -- the mover was in check
  veto = true,
}
