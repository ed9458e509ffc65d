RWStructuredBuffer<int> o : register(u0);
[numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { int v = 0; switch (i.x) { case i.y: v = 1; break; } o[0] = v; }
