-- Hostile: a moves hook that returns far more moves than a list holds.
effect{
  name = "flood",
  moves = function(pos)
    if pos:var(1) ~= 1 then return nil end
    local list = {}
    for i = 1, 20000 do list[i] = {kind = "effect", arg = i % 256, tier = i // 256} end
    return list
  end,
  apply = function(pos, move) return false end,
}
