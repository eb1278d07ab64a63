-- A pool of 100 fixed variants (more than the engine remembers by
-- address), returned four at a time: a pawn's move to the square of index
-- q (a1 = 0, b1 = 1, ..., e5 = 24) becomes the variants with args q + 1,
-- q + 26, q + 51 and q + 76, and one more made afresh at each call (arg
-- 200 + q), which the collector may take once the call is over.
local POOL = {}
for i = 1, 100 do
  POOL[i] = fixed_variant{arg = i}
end
effect{
  name = "pool",
  expand_faces = {"pawn"},
  expand = function(pos, move)
    local f, r = pos:coords(move.to)
    local q = f + 5 * r
    collectgarbage() -- the last call's fresh variant is garbage now
    return {POOL[q + 1], POOL[q + 26], POOL[q + 51], POOL[q + 76], fixed_variant{arg = 200 + q}}
  end,
  format = function(pos, move)
    if move.effect == "pool" then
      return "/" .. move.arg
    end
  end,
}
