-- face_to_face.lua: the Kings may stand side by side but never face to
-- face; a ply after which they do is illegal, whoever made it.  Option
-- face_to_face:
--   both   (default) orthogonally adjacent, each facing the other;
--   either orthogonally adjacent, at least one facing the other;
--   line   on one rank or file at any distance with nothing between,
--          each facing the other.
-- Diagonal neighbours never face each other.
local reading = rules.face_to_face
local VEC = {[0] = {0, 1}, {1, 0}, {0, -1}, {-1, 0}}   -- n e s w

-- Side by side, only a King's own step, turn or drop can change what
-- faces what; on a line, any piece leaving the squares between can.
effect{
  name = "face-to-face",
  veto_faces = reading ~= "line" and {"king"} or nil,
  veto = function(pos, move)
    local b, N, files = gufuu.read(pos), gufuu.N, rules.files
    local k0, k1 = b[N + 1], b[N + 2]
    if not k0 or not k1 then return false end
    local f0, r0, f1, r1 = (k0 - 1) % files, (k0 - 1) // files, (k1 - 1) % files,
                           (k1 - 1) // files
    local dx, dy = f1 - f0, r1 - r0
    if dx ~= 0 and dy ~= 0 then return false end
    local n = math.abs(dx + dy)
    if n ~= 1 and reading ~= "line" then return false end
    local sx, sy = dx // n, dy // n           -- one step from King 0 to King 1
    local v0, v1 = VEC[b[k0].dir], VEC[b[k1].dir]
    local looks0 = v0[1] == sx and v0[2] == sy
    local looks1 = v1[1] == -sx and v1[2] == -sy
    if reading == "either" then return looks0 or looks1 end
    if not (looks0 and looks1) then return false end
    for step = 1, n - 1 do                   -- line: nothing between
      if b[k0 + sx * step + sy * step * files] then return false end
    end
    return true
  end,
}
