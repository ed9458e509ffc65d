RWStructuredBuffer<int> o : register(u0);
static const int m = 0x80000000;
[numthreads(1, 1, 1)] void main() { o[0] = m / -1 + (-2147483647 - 1) % -1; }
