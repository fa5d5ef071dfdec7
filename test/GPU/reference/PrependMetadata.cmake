# Writes OUTPUT = LINE + "\n" + the contents of INPUT (a PTX file from nvcc),
# i.e. the `// tilec.kernel` metadata line tilec puts at the top of its PTX.
# Usage: cmake -DLINE=... -DINPUT=... -DOUTPUT=... -P PrependMetadata.cmake
file(READ "${INPUT}" body)
file(WRITE "${OUTPUT}" "${LINE}\n${body}")
