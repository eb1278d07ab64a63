-- Hostile: move tables whose fields are metamethods that loop or recurse
-- (read by the engine while it checks the moves hook's result), and a
-- recursion through __index that Lua can only stop at its C-stack limit.
effect{
  name = "metamethods",
  moves = function(pos)
    local v = pos:var(1)
    if v == 1 then
      return {setmetatable({}, {__index = function() while true do end end})}
    elseif v == 2 then
      local t
      t = setmetatable({}, {__index = function(_, k) return t[k] end})
      return {t}
    elseif v == 3 then
      return setmetatable({}, {__len = function() return 1e9 end})
    end
  end,
}
