# CLI tests of `warpmem expr`: goldens for each output format, the
# examples' key numbers, and every error with its caret (exit 1) or usage
# message (exit 2).

wm_cli_test(NAME expr_help ARGS expr --help STDOUT "usage: warpmem expr")

# Output formats, pinned on small grids (-D shrinks the 8192 examples).
wm_cli_test(NAME expr_padded_text
  ARGS expr -D N=64 --color never -f examples/expr/transpose_padded.expr
  GOLDEN expr_padded.txt)
wm_cli_test(NAME expr_tiled_csv
  ARGS expr -D N=64 --format csv -f examples/expr/transpose_tiled.expr
  GOLDEN expr_tiled.csv)
wm_cli_test(NAME expr_kv_json
  ARGS expr -D TOKENS=16 --format json -f examples/expr/kv_cache.expr
  GOLDEN expr_kv.json)

# Statements on the command line; a 2-D warp's lane map.
wm_cli_test(NAME expr_args_16x16
  ARGS expr --block 16,16 --color never
       "load shared f32 t[16][16] at [tid.x][tid.y]"
  STDOUT "lanes  0..15  tid.x 0..15  tid.y 0  tid.z 0"
         "lanes 16..31  tid.x 0..15  tid.y 1  tid.z 0"
         "wavefronts per request: min 8  median 8  max 8")
wm_cli_test(NAME expr_partial_warp
  ARGS expr --block 48 --color never "load global f32 a[48] at [tid.x]"
  STDOUT "the last warp of each block has 16 active lanes"
         "sectors per request: min 2  median 2  max 4")
wm_cli_test(NAME expr_grid_override
  ARGS expr -D N=64 --grid 1,1 --format csv
       -f examples/expr/contiguous_copy.expr
  STDOUT ",total,,,,,,,,smsp__sass_inst_executed_op_global_ld.sum,inst,8\n")

# The examples at their full 8192 x 8192 size (the lesson's numbers).
wm_cli_test(NAME expr_transposed_copy_full
  ARGS expr --format csv -f examples/expr/transposed_copy.expr
  STDOUT ",total,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,67108864\n"
         ",total,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,sector,8388608\n")

# Parse errors: file:line:col, the line, a caret (exit 4).
foreach(name unknown_var bad_syntax bad_type unknown_type)
  wm_cli_test(NAME expr_err_${name} ARGS expr -f tests/expr/${name}.expr
    EXIT 4 STDERR_GOLDEN expr_err_${name}.txt)
endforeach()
wm_cli_test(NAME expr_err_args
  ARGS expr --block 32 "load global f32 a[8] at [tid.x]"
       "load global f32 b[8] at [tid.q]"
  EXIT 4 STDERR_GOLDEN expr_err_args.txt)

# Run-time faults: block and thread of the first offending thread (exit 1).
foreach(name div_zero out_of_bounds address)
  wm_cli_test(NAME expr_fault_${name} ARGS expr -f tests/expr/${name}.expr
    EXIT 1 STDERR_GOLDEN expr_fault_${name}.txt)
endforeach()
wm_cli_test(NAME expr_limit
  ARGS expr --block 32 --max-accesses 10
       "load global f32 a[8] at [0] for j in 0..100"
  EXIT 1 STDERR "^warpmem: error: expr: more than 10 warp accesses; raise --max-accesses or shrink the grid\n$")

# Usage errors (exit 2).
wm_cli_test(NAME expr_no_stmts ARGS expr --block 32 EXIT 2
  STDERR "^warpmem: error: expr: no statements \\(give them as arguments or with -f FILE\\)\n$")
wm_cli_test(NAME expr_no_block ARGS expr "load global f32 a[8] at [0]" EXIT 2
  STDERR "^warpmem: error: expr: no block size \\(give --block or a 'block' line\\)\n$")
wm_cli_test(NAME expr_bad_block ARGS expr --block 64,32 "load global f32 a[8] at [0]"
  EXIT 2 STDERR "^warpmem: error: --block: '64,32' has more than 1024 threads\n$")
wm_cli_test(NAME expr_bad_grid ARGS expr --grid 0 "load global f32 a[8] at [0]"
  EXIT 2 STDERR "^warpmem: error: --grid: '0' is out of range \\[1, 2147483647\\]\n$")
wm_cli_test(NAME expr_bad_define ARGS expr -D tid=3 "load global f32 a[8] at [0]"
  EXIT 2 STDERR "^warpmem: error: -D: 'tid' is not a usable constant name\n$")
wm_cli_test(NAME expr_bad_define2 ARGS expr -D N "load global f32 a[8] at [0]"
  EXIT 2 STDERR "^warpmem: error: -D: 'N' is not NAME=VALUE\n$")
wm_cli_test(NAME expr_both_inputs ARGS expr -f x.expr "load global f32 a[8] at [0]"
  EXIT 2 STDERR "^warpmem: error: expr: give statements either with -f or as arguments, not both\n$")
wm_cli_test(NAME expr_unknown_opt ARGS expr --frob EXIT 2
  STDERR "^warpmem: error: expr: unknown option '--frob' \\(see 'warpmem expr --help'\\)\n$")
wm_cli_test(NAME expr_missing_file ARGS expr -f tests/expr/nonexistent.expr
  EXIT 4 STDERR "^warpmem: error: cannot read 'tests/expr/nonexistent.expr': No such file or directory\n$")

# Options may follow the statements (argv is permuted as getopt does), and
# a value that looks like a statement stays with its option.
wm_cli_test(NAME expr_options_after ARGS expr
  "load global f32 a[64][32] at [tid.x][0]" --block 32 --format csv
  STDOUT ",total,,,,,,,,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sector,32\n")
wm_cli_test(NAME expr_options_between ARGS expr
  "load global f32 a[64] at [tid.x]" --block 32,2 "store global f32 b[64] at [tid.x]"
  --format csv STDOUT "^command,arch,kernel,scope,site,"
  "\nexpr,sm_90,,site,1,<command line>,2,store global f32 b\\[64\\] at \\[tid.x\\],global,st,")
wm_cli_test(NAME expr_help_after ARGS expr "load global f32 a[4] at [tid.x]" --help
  STDOUT "usage: warpmem expr")
