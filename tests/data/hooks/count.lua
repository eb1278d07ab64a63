-- Count tests (<hook>_count): effect N (variable 1 = N) refuses every move
-- it is asked about, so the legal list shows which moves pass each test.
local function refuse(n)
  return function(pos, move)
    return pos:var(1) == n
  end
end
-- a Black pawn on the destination's rank, after the move
effect{name = "rank", veto = refuse(1),
       veto_count = {on = "rank", faces = {"pawn"}, owner = "opponent"}}
-- a two-tier tower topped by the mover in the destination's file
effect{name = "top-mover", veto = refuse(2),
       veto_count = {on = "file", top = "mover", heights = {2}, towers = true}}
-- a Black piece at tier 1 of the move's tower
effect{name = "tier", veto = refuse(3),
       veto_count = {on = "tower", tiers = {1}, owner = "opponent"}}
-- a two-tier tower topped by the opponent in the destination's file
effect{name = "top-opponent", veto = refuse(4),
       veto_count = {on = "file", top = "opponent", heights = {2}, towers = true}}
-- two of the mover's pieces of one face in the destination's file
effect{name = "each", veto = refuse(5),
       veto_count = {on = "file", owner = "mover", each = true, min = 2}}
-- two of the mover's pieces, of any faces, in the destination's file
effect{name = "sum", veto = refuse(6),
       veto_count = {on = "file", owner = "mover", min = 2}}
-- a pawn of the mover next to its King
effect{name = "royal", veto = refuse(7),
       veto_count = {on = "royal", faces = {"pawn"}, owner = "mover"}}
-- another tower of the destination's file two tiers high: the general
-- form and the old field it stands for
effect{name = "others", veto = refuse(8),
       veto_count = {on = "file", others = true, heights = {2}, towers = true}}
effect{name = "file-heights", veto = refuse(9), veto_file_heights = {2}}
