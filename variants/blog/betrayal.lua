-- Betrayal (blog rules): when a Bronze takes the top piece of a tower -- by
-- a mobile strike, or by an immobile strike from the tier just below --
-- every enemy piece beneath it turns over and joins the Bronze's side.  A
-- Lance so becomes a Catapult or Fortress in place, and the reverse.  An
-- enemy Commander (a one-sided tile) is left as it is.  The turn then
-- passes as usual.
--
-- A Betrayal that puts two pieces of one face and side in the tower is
-- illegal: same_type.lua checks every strike's tower after the move.
local function taker_square(pos, move)
  if not move.piece or move.piece.face ~= "bronze" then
    return nil
  end
  if move.kind == "capture" then
    return move.to
  end
  -- a strike upward that took the top: the striker is now the top
  if move.kind == "strike" and move.arg == move.tier + 1 and
     pos:height(move.from) == move.tier then
    return move.from
  end
  return nil
end

effect{
  name = "betrayal",
  after_faces = {"bronze"},
  after_kinds = {"capture", "strike"},
  after_heights = {2, 3}, -- something must remain beneath the Bronze,
  -- and an enemy piece must be in the tower
  after_count = {on = "tower", owner = "opponent"},
  after = function(pos, move)
    local sq = taker_square(pos, move)
    if not sq then
      return false
    end
    local me, turned = pos:side(), false
    for t = 1, pos:height(sq) - 1 do
      local p = pos:piece(sq, t)
      if p.owner ~= me and p.face ~= "commander" then
        pos:flip(sq, t)
        pos:set_owner(sq, t, me)
        turned = true
      end
    end
    return turned
  end,
}
