-- Constant vetoes (veto = true): no Rook may capture; while variable 1
-- is set, no move at all (veto_kinds = {} matches no move by itself).
effect{name = "rook-no-capture", veto_faces = {"rook"}, veto_kinds = {"capture"},
       veto = true}
effect{name = "frozen", veto_vars = {1}, veto_kinds = {}, veto = true}
