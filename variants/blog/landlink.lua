-- Land-Link (blog rules): a hand piece may be dropped onto a Catapult,
-- Fortress, Spy or Clandestinite that tops a tower of one or two tiers.
-- Onto a Spy only a back face, onto a Clandestinite only a front face, onto
-- a Catapult or Fortress any face.  Option landlink_owner: any (either
-- side's piece, the default) or own.
--
-- The engine asks this hook only for towers topped by the four faces
-- (drop_ok_faces), once for each pair of pieces and side to move
-- (drop_ok_pure: the answer depends on nothing else); it has already
-- applied the tier limit and the same-type rule.
local own_only = rules.landlink_owner == "own"

effect{
  name = "land-link",
  drop_ok_faces = {"catapult", "fortress", "spy", "clandestinite"},
  drop_ok_pure = true,
  drop_ok = function(pos, piece, sq)
    local top = pos:top(sq)
    if own_only and top.owner ~= pos:side() then
      return false
    end
    if top.face == "spy" then
      return piece.flipped
    end
    if top.face == "clandestinite" then
      return not piece.flipped
    end
    return true
  end,
}
