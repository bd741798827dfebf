// Fault injection for the tests that prove a command survives being killed
// at its worst moment (docs/reliability.md): the environment variable
//   MANAKA_FAULT=<point>:<n>:<action>
// makes the n-th pass (from 1) through fault_point(<point>) do <action>:
//   kill   SIGKILL this process (nothing runs after: a power cut, kill -9)
//   hang   sleep until a signal ends the process (a run stopped mid-way)
// Unset, fault_point is one load of a flag. The points are named where they
// are placed (the shard set's renames: "shard-set-rename").
#pragma once

namespace manaka {

void fault_point(const char* point);

}  // namespace manaka
