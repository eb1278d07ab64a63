-- shared_capture.lua: captures of shared pieces.  The engine sees a shared
-- piece as the mover's own, so it never offers to take one; this effect
-- adds those captures: the mover's King, or a shared piece, taking a
-- shared piece on a square of its pattern (the taken piece goes back to
-- the shared hand, and the capturer turns).  Never offered: the King
-- taking a piece that gives check, and a checking piece capturing (it
-- belongs to the opponent this turn).  Option own_shared_capture:
--   allow  (default) any other such capture, checking piece or not;
--   forbid only a shared piece taking a piece that gives check.
local allow = rules.own_shared_capture ~= "forbid"

effect{
  name = "shared-capture",
  moves_setup = false,
  moves = function(pos)
    local b, side, list, N = gufuu.read(pos), pos:side(), {}, gufuu.N
    local checking = {}
    for _, sq in ipairs(gufuu.checkers(b)) do checking[sq] = true end
    for i = 1, N do
      local p = b[i]
      if p and (p.owner == 2 or p.owner == side) and not checking[i] then
        for j in pairs(gufuu.REACH[p.face][p.dir][i]) do
          local t = b[j]
          if t and t.owner == 2 and (p.owner == 2 and (allow or checking[j]) or
                                     p.owner ~= 2 and allow and not checking[j]) then
            list[#list + 1] = {kind = "capture", from = gufuu.NAME[i], to = gufuu.NAME[j]}
          end
        end
      end
    end
    return list
  end,
}
