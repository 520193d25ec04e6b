# Writes builtinscenarios.cpp with every resources/scenarios/*.json as a raw
# string, so the presets ship inside the binary. Run with -DSRC=dir -DOUT=file.
file(GLOB files "${SRC}/*.json")
list(SORT files)
set(body "#include \"builtinscenarios.h\"\n\nnamespace latprobe {\n\nconst std::vector<BuiltinScenario> &builtinScenarioTexts()\n{\n    static const std::vector<BuiltinScenario> all = {\n")
foreach(f IN LISTS files)
    get_filename_component(name "${f}" NAME_WE)
    file(READ "${f}" text)
    string(APPEND body "        {\"${name}\", R\"latprobe(${text})latprobe\"},\n")
endforeach()
string(APPEND body "    };\n    return all;\n}\n\n} // namespace latprobe\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
