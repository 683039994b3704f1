| a tiny XCC problem (PROBLEMS.md section 1)
a b c | x y
a x:0
b x:0 y
c y:1
a b x:1
