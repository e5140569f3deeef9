#include <cute/tensor.hpp>
#include <cstdio>
using namespace cute;
#define P(x) do { printf("%s => ", #x); print(x); printf("\n"); } while(0)
int main() {
  P(Int<511>{} & Int<3>{});
  P(511 & Int<3>{});
  P(Int<511>{} & 3);
  P(Int<0>{} & 5);
  P(5 & Int<0>{});
  P(~Int<5>{});
  P(~5);
  P(Int<5>{} | 2);
  P(Int<0>{} | 2);
  P(Int<5>{} | Int<2>{});
  P(Int<5>{} ^ Int<3>{});
  P(Int<5>{} ^ 3);
  P(Int<-1>{} & 7);
  P(shiftl(Int<3>{}, Int<4>{}));
  P(shiftl(3, Int<-1>{}));
  P(shiftr(Int<511>{}, Int<3>{}));
  P(shiftr(-1, 1));
  P(Int<1>{} + Int<2>{} & Int<3>{});
  P(Int<6>{} & Int<3>{} | Int<8>{} ^ Int<1>{});
  P(~Int<0>{} & Int<12>{});
  P((Int<511>{} & Int<3>{}) * Int<2>{});
  P(Int<1>{} | Int<2>{} * Int<4>{});
  P(shiftr(-48, 4)); P(shiftl(-3, 2)); P(shiftl(5, -1)); P(shiftr(Int<-48>{}, Int<4>{})); P(Int<0>{} & Int<0>{}); P(~Int<-1>{}); P(Int<7>{} ^ Int<7>{});
}
