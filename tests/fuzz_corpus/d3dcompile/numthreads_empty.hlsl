RWStructuredBuffer<int> o : register(u0);
[numthreads] void main() { o[0] = 1; }
