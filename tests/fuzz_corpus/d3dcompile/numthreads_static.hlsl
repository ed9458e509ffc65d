RWStructuredBuffer<int> o : register(u0);
static int x = 4;
[numthreads(x, 1, 1)] void main() { o[0] = 1; }
