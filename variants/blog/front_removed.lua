-- Option captured_front = removed: a captured Catapult or Fortress leaves
-- the game.  By default (lance, the spec) the engine's capture rule turns
-- the tile over into the captor's hand, where it is a Lance (L~C, L~F);
-- under this reading the after hook takes that Lance out again.  A
-- captured Lance is Forced Rearrangement's either way.
if rules.captured_front ~= "removed" then
  return
end

effect{
  name = "front-removed",
  after_taken = {"catapult", "fortress"},
  after_kinds = {"capture", "strike"},
  after = function(pos, move)
    local taken = move.taken
    if taken == nil or (taken.face ~= "catapult" and taken.face ~= "fortress") then
      return false
    end
    pos:to_hand(pos:side(), {kind = taken.kind, flipped = true}, -1)
    return true
  end,
}
