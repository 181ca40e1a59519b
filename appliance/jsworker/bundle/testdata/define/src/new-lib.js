export default "new-lib";
