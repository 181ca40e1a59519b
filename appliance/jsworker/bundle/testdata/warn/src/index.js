export default {
  run() {
    return { a: 1, a: 2 };
  },
};
