-- Hostile: a finalizer that never ends, left for the collector while the
-- file loads.  Lua runs finalizers with the debug hooks off, so the
-- instruction budget cannot stop it (an open bug: docs/robustness.md).
setmetatable({}, {__gc = function() while true do end end})
effect{name = "gc-at-load"}
