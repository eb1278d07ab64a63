effect{
  name = "fz",
  after = function(pos, move)
    local sq = move.to or move.from
    if not sq then return false end
    local h = pos:height(sq)
    if h > 0 then
      local p = pos:pop(sq)
      pos:push(sq, p)
      pos:insert(sq, 1, {kind = "pawn", face = "gold", owner = 1})
      pos:set_owner(sq, 1, 0)
      pos:replace(sq, 1, "pawn", 1)
      local t = pos:remove(sq, 1)
      pos:to_hand(1, t)
      pos:set_var(3, pos:var(3) + 1)
    end
    return true
  end,
}
