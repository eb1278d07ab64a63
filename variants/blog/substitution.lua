-- Substitution (blog rules): a Samurai standing alone on its square,
-- orthogonally next to its own Commander that is in check, may trade
-- places with it as the move.  The Commander may stand at any tier; the
-- Samurai takes its place there and the Commander stands alone on the
-- Samurai's square.  The engine's legality test rejects a trade that
-- leaves the Commander in check.  Written "d4=e4" (Samurai, Commander).
local steps = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}}

local function tower_has(pos, sq, face, owner)
  for _, p in ipairs(pos:tower(sq)) do
    if p.face == face and p.owner == owner then
      return true
    end
  end
  return false
end

effect{
  name = "substitution",
  -- a Samurai of the side standing alone next to its Commander
  moves_count = {on = "royal", faces = {"samurai"}, owner = "mover", heights = {1}},
  moves_check = true,
  moves_setup = false,
  moves = function(pos)
    if pos:setup() or not pos:in_check() then
      return nil
    end
    local side, out = pos:side(), {}
    for _, k in ipairs(pos:find("commander", side)) do
      local f, r = pos:coords(k.square)
      for _, d in ipairs(steps) do
        local x, y = f + d[1], r + d[2]
        if x >= 0 and x < pos:files() and y >= 0 and y < pos:ranks() then
          local sq = pos:square(x, y)
          local top = pos:top(sq)
          if pos:height(sq) == 1 and top.face == "samurai" and top.owner == side and
             not tower_has(pos, k.square, "samurai", side) then
            out[#out + 1] = {kind = "effect", from = sq, to = k.square, tier = k.tier}
          end
        end
      end
    end
    return out
  end,
  apply = function(pos, move)
    local samurai = pos:pop(move.from)
    local commander = pos:piece(move.to, move.tier)
    pos:replace(move.to, move.tier, samurai)
    pos:push(move.from, commander)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return move.from .. "=" .. move.to
    end
  end,
}
