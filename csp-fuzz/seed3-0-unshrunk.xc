| csp fuzz: seed 3, instance 0 (exact-cover), shrunk in 0 steps from 4+2 items, 2 options to 4+2 items, 2 options
| (as generated)
| backends proved wrong: dlx
|   dlx crashed: RuntimeError: no compiled object yet for <Library '_untweak' at 0x7f43366b4e50>
| replay: csp fuzz --seed 3 --start 0 --instances 1 --backends dlx,bitmask
3|p0 p1 p2 p3 | s0 s1
p3 s0:green s1
p3 p0
